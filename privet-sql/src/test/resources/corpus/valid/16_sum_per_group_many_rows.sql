-- SUM with per-group bounds clamps each unit's total over all its rows in the group (BigQuery's
-- semantics), so it needs no max_rows_per_group = 1; the registered public bounds of age clamp rows.
-- columns: sex, n, age_total
-- group_by: sex
-- aggregations: Count(n); Sum(age_total, age, 17, 90, perGroup 0..100 allRows)
-- selection: public 2
-- budget: epsilon=1
-- contributions: L0=1 Linf=5
-- filter:
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_rows_per_group = 5, group_selection_strategy = PUBLIC_GROUPS)
  sex, COUNT(*) AS n, SUM(age, contribution_bounds_per_group => (0, 100)) AS age_total
FROM adult GROUP BY sex
