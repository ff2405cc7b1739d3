-- error: 1:83
-- reason: no public key set is registered for column 'education'
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, group_selection_strategy = PUBLIC_GROUPS) education, COUNT(*) FROM adult GROUP BY education
