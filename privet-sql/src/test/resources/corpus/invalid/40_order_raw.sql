-- error: 1:134
-- reason: ORDER BY may only use released columns
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) education, COUNT(*) AS n FROM adult GROUP BY education ORDER BY age
