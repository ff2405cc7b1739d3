-- error: 1:56
-- reason: only supported on the privacy unit column
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(DISTINCT education) FROM adult
