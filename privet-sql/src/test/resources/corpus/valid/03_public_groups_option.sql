-- Public keys listed in OPTIONS: every key is released (even one absent from the data), no delta.
-- columns: sex, n
-- group_by: sex
-- aggregations: Count(n)
-- selection: public 3
-- budget: epsilon=1
-- contributions: L0=1 Linf=estimated
-- filter:
-- order: sex ASC
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, public_groups = ('Female', 'Male', 'Other'))
  sex, COUNT(*) AS n
FROM adult GROUP BY sex ORDER BY sex
