-- error: 1:56
-- reason: SELECT * is not allowed
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) * FROM adult
