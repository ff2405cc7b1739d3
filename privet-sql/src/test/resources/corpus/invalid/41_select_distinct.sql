-- error: 1:70
-- reason: SELECT DISTINCT is not allowed
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) DISTINCT education, COUNT(*) FROM adult GROUP BY education
