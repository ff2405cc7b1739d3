-- The brief's example query (BigQuery's DP clause with per-group bounds).
-- columns: education, n, hours
-- group_by: education
-- aggregations: Count(n); Mean(hours, hours_per_week, -102400, 102400, perGroup 0..100)
-- selection: private
-- budget: epsilon=1 delta=1e-6
-- contributions: L0=2 Linf=1
-- filter: age >= 18
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, max_groups_contributed = 2, privacy_unit_column = id)
  education, COUNT(*) AS n, AVG(hours_per_week, contribution_bounds_per_group => (0, 100)) AS hours
FROM adult WHERE age >= 18 GROUP BY education
