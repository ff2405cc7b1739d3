-- error: 1:65
-- reason: window functions
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) OVER (PARTITION BY education) FROM adult
