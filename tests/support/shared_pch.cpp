// The translation unit of asc_test_pch, the owner of the test executables' shared precompiled
// header (tests/CMakeLists.txt): the header is built for it and then reused by the tests.
