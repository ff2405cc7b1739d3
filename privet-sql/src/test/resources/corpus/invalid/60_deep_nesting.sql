-- error: 1:146
-- reason: nested more than 64 deep
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1) COUNT(*) FROM adult WHERE (((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((((age > 1)))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))))
