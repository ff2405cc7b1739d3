-- PERCENTILE_CONT with per-row bounds (the engine's quantile tree, one per column).
-- columns: sex, median_age, p90_hours
-- group_by: sex
-- aggregations: Quantiles(median_age, age, 17, 90, 0.5); Quantiles(p90_hours, hours_per_week, 0, 100, 0.9)
-- selection: public 2
-- budget: epsilon=2
-- contributions: L0=1 Linf=estimated
-- filter:
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 2, public_groups = ('Female', 'Male'))
  sex,
  PERCENTILE_CONT(age, 0.5, contribution_bounds_per_row => (17, 90)) AS median_age,
  PERCENTILE_CONT(hours_per_week, 0.9, contribution_bounds_per_row => (0, 100)) AS p90_hours
FROM adult GROUP BY sex
