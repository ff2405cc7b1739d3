-- error: 1:65
-- reason: lower < upper
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) SUM(age, contribution_bounds_per_group => (90, 17)) FROM adult
