-- error: 1:81
-- reason: max_groups_contributed must be an integer
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, max_groups_contributed = 0) COUNT(*) FROM adult
