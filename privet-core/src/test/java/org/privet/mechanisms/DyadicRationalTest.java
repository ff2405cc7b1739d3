package org.privet.mechanisms;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.math.BigDecimal;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.DoubleRange;
import net.jqwik.api.constraints.Scale;
import org.junit.jupiter.api.Test;

class DyadicRationalTest {

  @Property(tries = 2000)
  boolean floorOf_isBelowAndClose(@ForAll @DoubleRange(min = 1e-6, max = 1e6) @Scale(12) double eps) {
    DyadicRational d = DyadicRational.floorOf("epsilon", eps);
    BigDecimal exact = new BigDecimal(d.num()).divide(new BigDecimal(d.den()));
    return exact.compareTo(new BigDecimal(eps)) <= 0 && d.value() > eps * (1 - 0x1p-18);
  }

  @Test
  void floorOf_one_isExact() {
    assertEquals(1.0, DyadicRational.floorOf("epsilon", 1).value());
    assertEquals(0.5, DyadicRational.floorOf("epsilon", 0.5).value());
  }

  @Test
  void floorOf_outOfRange_throwsNamingParameter() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> DyadicRational.floorOf("eps1", 1e-20));
    assertEquals("eps1 must be in [2^-40, 2^40], was 1.0E-20", e.getMessage());
  }
}
