-- error: 2:12
-- reason: column 'age' is neither in GROUP BY
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1)
	COUNT(*),	age FROM adult
