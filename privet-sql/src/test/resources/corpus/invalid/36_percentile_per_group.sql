-- error: 1:82
-- reason: takes contribution_bounds_per_row
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) PERCENTILE_CONT(age, 0.5, contribution_bounds_per_group => (17, 90)) FROM adult
