-- error: 1:78
-- reason: joins are not allowed
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult a JOIN adult b ON a.id = b.id
