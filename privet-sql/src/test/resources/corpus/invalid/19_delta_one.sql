-- error: 1:64
-- reason: delta must be in [0, 1)
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1) COUNT(*) FROM adult
