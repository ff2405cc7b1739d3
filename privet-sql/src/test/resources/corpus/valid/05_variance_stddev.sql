-- Per-row bounds for VARIANCE/STDDEV, public bounds from the catalog for age.
-- columns: sex, var_age, sd_hours
-- group_by: sex
-- aggregations: Variance(var_age, age, 17, 90); StdDev(sd_hours, hours_per_week, 1, 99)
-- selection: public 2
-- budget: epsilon=3
-- contributions: L0=1 Linf=estimated
-- filter: NOT (workclass IS NULL)
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 3, public_groups = ('Female', 'Male'))
  sex,
  VARIANCE(age) AS var_age,
  STDDEV_POP(hours_per_week, contribution_bounds_per_row => (1, 99)) AS sd_hours
FROM adult
WHERE workclass IS NOT NULL
GROUP BY sex
