-- error: 1:53
-- reason: epsilon must be a number
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 'lots') COUNT(*) FROM adult
