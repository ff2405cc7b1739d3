-- error: 1:92
-- reason: LIKE is not supported
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE education LIKE 'Bach%'
