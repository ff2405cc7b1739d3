-- error: 1:72
-- reason: one per GROUP BY column
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, public_groups = (('Male', 'White'), ('Female', 'Black'))) sex, COUNT(*) FROM adult GROUP BY sex
