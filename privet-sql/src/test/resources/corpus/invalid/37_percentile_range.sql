-- error: 1:77
-- reason: percentile must be a literal in [0, 1]
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) PERCENTILE_CONT(age, 1.5, contribution_bounds_per_row => (17, 90)) FROM adult
