-- A dataset registered with one row per privacy unit (no unit column), read from the raw file.
-- columns: income, n, hours
-- group_by: income
-- aggregations: Count(n); Sum(hours, hours_per_week, -102400, 102400, perGroup 0..100 allRows)
-- selection: private
-- budget: epsilon=1 delta=1e-6
-- contributions: L0=1 Linf=1
-- filter: native_country = 'United-States'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6, noise = LAPLACE)
  income, COUNT(*) AS n, SUM(hours_per_week, contribution_bounds_per_group => (0, 100)) AS hours
FROM adult_rows
WHERE native_country = 'United-States'
GROUP BY income
