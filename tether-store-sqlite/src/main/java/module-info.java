/** The durable {@code TetherStore}: a SQLite journal (WAL) under the memory ring. */
module dev.tether.store.sqlite {
  requires transitive dev.tether.store;
  requires java.sql;
  requires org.xerial.sqlitejdbc;

  exports dev.tether.store.sqlite;
}
