# The browser viewer's page script (viewer/): `npm ci` then esbuild bundle it into one
# minified file, embedded into the gauss binary as gauss::cli::kViewerBundle (view.cc).
# Without npm the viewer is skipped with a message: `gauss view` then reports that it was
# built without it, and the browser tests are not registered.
#
# Included by apps/gauss (the custom commands must live where the gauss target is). Defines
# GAUSS_VIEWER_SOURCE (the generated .cc to add to gauss); GAUSS_NPM and GAUSS_NODE are cache
# variables, so tests/ sees whether the viewer was built.
find_program(GAUSS_NPM npm)
find_program(GAUSS_NODE node)
set(viewer_dir ${PROJECT_SOURCE_DIR}/viewer)
set(GAUSS_VIEWER_SOURCE ${CMAKE_BINARY_DIR}/viewer/viewer_bundle.cc)
file(MAKE_DIRECTORY ${CMAKE_BINARY_DIR}/viewer)
if(GAUSS_NPM AND GAUSS_NODE)
  set(stamp ${CMAKE_BINARY_DIR}/viewer/npm-ci.stamp)
  set(bundle ${CMAKE_BINARY_DIR}/viewer/viewer.js)
  file(GLOB viewer_sources CONFIGURE_DEPENDS ${viewer_dir}/src/*.js)
  # node_modules lives in viewer/ (ignored by git), shared by every build directory; npm ci
  # reruns only when the lock file changes. It never downloads a browser.
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -E env PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
            ${GAUSS_NPM} ci --no-audit --no-fund --loglevel=error
    COMMAND ${CMAKE_COMMAND} -E touch ${stamp}
    DEPENDS ${viewer_dir}/package.json ${viewer_dir}/package-lock.json
    WORKING_DIRECTORY ${viewer_dir}
    COMMENT "viewer: npm ci (three.js, esbuild, playwright-core from package-lock.json)"
    VERBATIM)
  add_custom_command(OUTPUT ${bundle}
    COMMAND ${viewer_dir}/node_modules/.bin/esbuild src/main.js --bundle --minify
            --format=iife --target=es2020 --log-level=warning --outfile=${bundle}
    DEPENDS ${stamp} ${viewer_sources}
    WORKING_DIRECTORY ${viewer_dir}
    COMMENT "viewer: bundling viewer/src with esbuild"
    VERBATIM)
  add_custom_command(OUTPUT ${GAUSS_VIEWER_SOURCE}
    COMMAND ${CMAKE_COMMAND} -DBUNDLE=${bundle} -DOUTPUT=${GAUSS_VIEWER_SOURCE}
            -P ${PROJECT_SOURCE_DIR}/cmake/EmbedViewerBundle.cmake
    DEPENDS ${bundle} ${PROJECT_SOURCE_DIR}/cmake/EmbedViewerBundle.cmake
    COMMENT "viewer: embedding the bundle into gauss"
    VERBATIM)
else()
  message(STATUS "npm or node not found: building gauss without the browser viewer "
                 "(gauss view will say so; the browser tests are skipped)")
  execute_process(COMMAND ${CMAKE_COMMAND} -DOUTPUT=${GAUSS_VIEWER_SOURCE}
                  -P ${PROJECT_SOURCE_DIR}/cmake/EmbedViewerBundle.cmake)
endif()
