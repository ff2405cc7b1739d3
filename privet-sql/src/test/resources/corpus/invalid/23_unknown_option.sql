-- error: 1:43
-- reason: unknown option 'epsilonn'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilonn = 1) COUNT(*) FROM adult
