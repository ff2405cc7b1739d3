-- error: 1:71
-- reason: LIMIT/OFFSET before aggregation
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM (SELECT * FROM adult LIMIT 100)
