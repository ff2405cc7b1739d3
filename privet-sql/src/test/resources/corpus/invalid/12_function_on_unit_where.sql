-- error: 1:82
-- reason: privacy unit column 'id'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE MOD(id, 2) = 0
