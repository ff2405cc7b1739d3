-- error: 1:1
-- reason: epsilon option is required
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (delta = 1e-6) COUNT(*) FROM adult
