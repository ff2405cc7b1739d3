-- error: 1:80
-- reason: needs max_rows_per_group = 1
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_rows_per_group = 5) AVG(age, contribution_bounds_per_group => (0, 100)) FROM adult
