-- error: 1:99
-- reason: privacy unit column 'id'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) COUNT(*) FROM adult GROUP BY id % 10
