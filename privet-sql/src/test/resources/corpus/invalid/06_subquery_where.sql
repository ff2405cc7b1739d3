-- error: 1:89
-- reason: subqueries are not allowed
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE id IN (SELECT id FROM adult WHERE age > 80)
