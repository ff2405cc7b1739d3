-- A quote inside a literal is data, not SQL: the filter matches no row, the count is near 0.
-- columns: n
-- group_by:
-- aggregations: Count(n)
-- selection: none
-- budget: epsilon=1
-- contributions: L0=1 Linf=estimated
-- filter: education = 'x'' OR 1=1 --'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) AS n FROM adult WHERE education = 'x'' OR 1=1 --'
