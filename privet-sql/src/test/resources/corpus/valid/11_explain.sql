-- EXPLAIN: compiled, planned, never run or charged.
-- explain: true
-- columns: workclass, n
-- group_by: workclass
-- aggregations: Count(n)
-- selection: private
-- budget: epsilon=0.5 delta=1e-7
-- contributions: L0=1 Linf=estimated
-- filter:
EXPLAIN SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 0.5, delta = 1e-7) workclass, COUNT(*) AS n FROM adult GROUP BY workclass
