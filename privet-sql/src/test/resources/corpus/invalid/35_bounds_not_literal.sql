-- error: 1:102
-- reason: numeric literals
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(age, contribution_bounds_per_group => (0, age)) FROM adult
