-- error: 1:99
-- reason: grouping by the privacy unit column
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1e-6) COUNT(*) FROM adult GROUP BY id
