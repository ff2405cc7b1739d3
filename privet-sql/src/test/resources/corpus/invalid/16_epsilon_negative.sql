-- error: 1:53
-- reason: epsilon must be a finite number > 0
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = -1) COUNT(*) FROM adult
