-- error: 1:56
-- reason: privacy unit column 'id'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(DISTINCT id / 1000) FROM adult
