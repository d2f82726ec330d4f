/* ascend-tools libascendcl: the ACL C API's umbrella header (initialisation, version, errors).
 * Names, types and values follow CANN's public acl.h; the text is this project's own. */
#ifndef ASC_ACL_ACL_H_
#define ASC_ACL_ACL_H_

#include "acl_base.h"
#include "acl_mdl.h"
#include "acl_rt.h"

#ifdef __cplusplus
extern "C" {
#endif

#define ACL_MAJOR_VERSION 1
#define ACL_MINOR_VERSION 0
#define ACL_PATCH_VERSION 0

/* `configPath` names a JSON file ("{}" is enough) or is NULL. */
ACL_FUNC_VISIBILITY aclError aclInit(const char *configPath);
ACL_FUNC_VISIBILITY aclError aclFinalize(void);
ACL_FUNC_VISIBILITY aclError aclrtGetVersion(int32_t *majorVersion, int32_t *minorVersion, int32_t *patchVersion);
/* The message of the calling thread's most recent failed call (NULL when none); reading it clears it. */
ACL_FUNC_VISIBILITY const char *aclGetRecentErrMsg(void);

#ifdef __cplusplus
}
#endif

#endif /* ASC_ACL_ACL_H_ */
