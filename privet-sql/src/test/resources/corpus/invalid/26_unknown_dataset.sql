-- error: 1:70
-- reason: unknown dataset 'salaries'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM salaries
