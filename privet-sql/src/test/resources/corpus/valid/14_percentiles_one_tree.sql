-- Several percentiles of one column share one engine quantile tree (one budget share); an identical
-- call is released once; a percentile of another column gets its own tree.
-- columns: education, q1_age, median_age, q3_age, median_again, median_hours
-- group_by: education
-- aggregations: Quantiles(q1_age, age, 17, 90, 0.25, 0.5, 0.75); Quantiles(median_hours, hours_per_week, 0, 100, 0.5)
-- selection: public 2
-- budget: epsilon=1
-- contributions: L0=1 Linf=estimated
-- filter:
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, public_groups = ('HS-grad', 'Bachelors'))
  education,
  PERCENTILE_CONT(age, 0.25, contribution_bounds_per_row => (17, 90)) AS q1_age,
  PERCENTILE_CONT(age, 0.5, contribution_bounds_per_row => (17, 90)) AS median_age,
  PERCENTILE_CONT(age, 0.75, contribution_bounds_per_row => (17, 90)) AS q3_age,
  PERCENTILE_CONT(age, 0.5, contribution_bounds_per_row => (17, 90)) AS median_again,
  PERCENTILE_CONT(hours_per_week, 0.5, contribution_bounds_per_row => (0, 100)) AS median_hours
FROM adult GROUP BY education
