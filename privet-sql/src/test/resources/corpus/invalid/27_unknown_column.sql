-- error: 1:60
-- reason: unknown column 'salary'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) AVG(salary, contribution_bounds_per_group => (0, 1)) FROM adult
