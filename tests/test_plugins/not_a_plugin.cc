// A plain shared library with no Gauss plugin section: the registry must skip it during
// discovery and name it, with the reason, in its "not found" messages.
extern "C" int gauss_test_not_a_plugin_answer() { return 42; }
