// A shared library that exports a function but no asc_plugin_entry.
extern "C" __attribute__((visibility("default"))) int not_a_plugin() { return 42; }
