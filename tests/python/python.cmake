# The Python package (python/credit) over libcredit_c.so: its unit tests (python3 -m unittest; the torch parts skip
# without torch), `import credit` from an installed prefix, and a pip install of python/ offline.
find_package(Python3 COMPONENTS Interpreter)
if(NOT Python3_Interpreter_FOUND)
  message(STATUS "no Python 3 interpreter: the Python package's tests are left out")
  return()
endif()
add_test(NAME python_unittest
         COMMAND ${Python3_EXECUTABLE} -m unittest discover -v -s ${CMAKE_CURRENT_LIST_DIR} -p "test_*.py")
set_tests_properties(python_unittest PROPERTIES LABELS cpu ENVIRONMENT
  "PYTHONPATH=${CMAKE_SOURCE_DIR}/python;CREDIT_LIBRARY=$<TARGET_FILE:credit_c>;CREDIT_FIXTURE_DIR=${fixtures};PYTHONDONTWRITEBYTECODE=1")
# Installed into an empty prefix: PYTHONPATH=PREFIX/share/credit/python alone finds the package and the library.
add_test(NAME python_install_import
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/install_and_import.sh ${CMAKE_BINARY_DIR}
                 ${CMAKE_CURRENT_BINARY_DIR}/python-install ${fixtures}/h100-calibration-bf16.json ${Python3_EXECUTABLE})
set_tests_properties(python_install_import PROPERTIES LABELS cpu)
# pip install --no-deps --no-build-isolation of a copy of python/ (the source tree stays clean); skipped (77) where
# the interpreter has no setuptools and wheel to build it offline.
add_test(NAME python_pip_install
         COMMAND sh ${CMAKE_CURRENT_LIST_DIR}/pip_install.sh ${CMAKE_SOURCE_DIR}/python
                 ${CMAKE_CURRENT_BINARY_DIR}/python-pip $<TARGET_FILE:credit_c> ${Python3_EXECUTABLE})
set_tests_properties(python_pip_install PROPERTIES LABELS cpu SKIP_RETURN_CODE 77)
