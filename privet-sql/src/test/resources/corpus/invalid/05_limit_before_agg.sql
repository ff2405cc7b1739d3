-- error: 1:91
-- reason: keeps rows by position
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM (SELECT * FROM adult LIMIT 100)
