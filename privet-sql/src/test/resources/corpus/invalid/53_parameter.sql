-- error: 1:88
-- reason: query parameters
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE age > ?
