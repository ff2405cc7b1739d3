-- error: 1:93
-- reason: only allowed inside a DP aggregate call
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE age IN (1, contribution_bounds_per_row => (0, 1))
