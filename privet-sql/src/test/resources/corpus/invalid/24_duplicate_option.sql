-- error: 1:56
-- reason: given twice
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, epsilon = 100) COUNT(*) FROM adult
