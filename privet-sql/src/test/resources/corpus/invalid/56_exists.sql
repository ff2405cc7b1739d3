-- error: 1:90
-- reason: subqueries
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE EXISTS (SELECT 1 FROM adult)
