-- error: 1:64
-- reason: ZetaSQL accepts delta = 1, which gives no privacy guarantee; Privet refuses it
SELECT WITH DIFFERENTIAL_PRIVACY OPTIONS (epsilon = 1, delta = 1) COUNT(*) FROM adult
