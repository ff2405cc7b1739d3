-- error: 1:70
-- reason: FROM must name one dataset
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM read_csv('/etc/passwd')
