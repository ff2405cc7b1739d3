-- error: 1:125
-- reason: HAVING is not supported
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) education, COUNT(*) AS n FROM adult GROUP BY education HAVING COUNT(*) > 10
