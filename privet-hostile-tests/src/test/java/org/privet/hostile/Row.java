package org.privet.hostile;

import java.math.BigDecimal;
import java.time.LocalDate;
import java.time.LocalDateTime;

/**
 * One row of the suite's table, whose public schema is fixed when the table is created (never
 * inferred from rows): uid BIGINT (the privacy unit), g VARCHAR, k SMALLINT, x DOUBLE,
 * m DECIMAL(6,2), d DATE, ts TIMESTAMP, b BOOLEAN. Any value may be null.
 */
record Row(Long uid, String g, Short k, Double x, BigDecimal m, LocalDate d, LocalDateTime ts,
    Boolean b) {}
