-- error: 4:7
-- reason: unknown column 'hours'
SELECT WITH DIFFERENTIAL_PRIVACY
  OPTIONS (epsilon = 1)
	COUNT(*) AS n,
  SUM(hours, contribution_bounds_per_row => (0, 1)) AS h
FROM adult
