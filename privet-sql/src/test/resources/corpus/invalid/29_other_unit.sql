-- error: 1:78
-- reason: is not the privacy unit registered
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, privacy_unit_column = fnlwgt) COUNT(*) FROM adult
