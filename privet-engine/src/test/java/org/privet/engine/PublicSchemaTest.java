package org.privet.engine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.privet.engine.spi.ColumnType;
import org.privet.engine.spi.TableSchema;

class PublicSchemaTest {
  @Test
  void parse_badSchemaText_namesTheEntryNotAValue() {
    assertTrue(assertThrows(IllegalArgumentException.class, () -> PublicSchema.parse("age:int,age:date"))
        .getMessage().contains("'age' is listed twice"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> PublicSchema.parse("age:money"))
        .getMessage().contains("was 'money'"));
    assertTrue(assertThrows(IllegalArgumentException.class, () -> PublicSchema.parse("age"))
        .getMessage().contains("name:type"));
  }

  @Test
  void parse_aliases_canonicalTextRoundTrips() {
    PublicSchema s = PublicSchema.parse("a:bigint, b:float ,c:varchar,d:bool,e:DATE,f:timestamp");
    assertEquals("a:integer,b:double,c:string,d:boolean,e:date,f:timestamp", s.toString());
    assertEquals(s, PublicSchema.parse(s.toString()));
  }

  @Test
  void of_describedTypes_decimalAsDoubleOtherAsString() {
    PublicSchema s = PublicSchema.of(new TableSchema(List.of(
        new TableSchema.Column("p", ColumnType.DECIMAL, "DECIMAL(10,2)"),
        new TableSchema.Column("l", ColumnType.OTHER, "INTEGER[]"),
        new TableSchema.Column("i", ColumnType.INTEGER, "INTEGER"))));
    assertEquals("p:double,l:string,i:integer", s.toString());
  }
}
